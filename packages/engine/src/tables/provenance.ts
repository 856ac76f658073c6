/** Where a data table comes from: which source, which cells the book fixes. */
import { z } from 'zod';

export const provenanceSchema = z.object({
  source: z.string().min(1),
  fixedByBook: z.array(z.string()),
  reconstructed: z.string(),
});
