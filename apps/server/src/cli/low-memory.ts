/**
 * Imported first by batch commands whose memory matters more than their speed (`rebuild` reads a
 * whole world's log): V8 then collects garbage sooner instead of growing the heap. Measured on a
 * 300-turn world, the peak resident memory of a rebuild went from about 210 MB to 150 MB for about
 * a third more time. A V8 flag set at run time; it changes only how eagerly memory is reclaimed.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--optimize-for-size');
