/**
 * Zod compiles object parsers with `new Function` when it may, and probes whether it may as soon
 * as the first schema is built. The web app's content-security policy forbids eval, and every probe
 * shows up as a violation in the console. A page imports this module before anything else (its
 * first import), so that zod parses without compiling from the start. The server does not import it.
 */
import { z } from 'zod';

z.config({ jitless: true });
