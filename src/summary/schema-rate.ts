import { z } from 'zod';

/** `count` of `total`, its rate and 95 % Wilson interval; rate and interval are null when total is 0. */
export const RateSchema = z.strictObject({
  count: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  rate: z.number().min(0).max(1).nullable(),
  low: z.number().min(0).max(1).nullable(),
  high: z.number().min(0).max(1).nullable(),
});
