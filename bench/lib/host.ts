/** Facts about the machine written beside every result: the figures mean little without them. */
import { closeSync, fsyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { median } from './stats.ts';

/** The median time of an fsync of a small write in the temporary folder (ms). */
function fsyncMs(): number {
  const file = path.join(tmpdir(), `bke-bench-fsync-${process.pid}`);
  const fd = openSync(file, 'w');
  const times: number[] = [];
  try {
    for (let i = 0; i < 30; i++) {
      writeSync(fd, 'x'.repeat(512));
      const t = performance.now();
      fsyncSync(fd);
      times.push(performance.now() - t);
    }
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
  return median(times);
}

export const loadAverage = (): [number, number, number] =>
  loadavg().map((x) => Number(x.toFixed(2))) as never;

export function hostFacts() {
  return {
    cores: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGb: Number((totalmem() / 2 ** 30).toFixed(1)),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    fsyncMsP50: Number(fsyncMs().toFixed(3)),
    loadAverage: loadAverage(),
  };
}
