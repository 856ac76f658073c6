/** jsdom lacks ResizeObserver (Svelte's bind:clientWidth uses it); a no-op one is enough here. */
import { cleanup } from '@testing-library/svelte';
import { afterEach } from 'vitest';

class NoResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= NoResizeObserver as unknown as typeof ResizeObserver;

afterEach(() => cleanup());
