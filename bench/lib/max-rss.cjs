// Preloaded into a measured command (`node --require`): prints the process's peak resident memory
// when it exits, for the benchmark to read from its standard error.
process.on('exit', () => {
  require('node:fs').writeSync(2, `\nBENCH_MAX_RSS_KB ${process.resourceUsage().maxRSS}\n`);
});
