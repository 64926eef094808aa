import { z } from 'zod';

/** The agent actions of DESIGN.md. zod because external agents send them as JSON. */
export const ActionSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('run'), command: z.string().min(1), background: z.boolean().optional() }),
  z.strictObject({ type: z.literal('wait') }),
  z.strictObject({ type: z.literal('kill'), signal: z.enum(['SIGINT', 'SIGTERM', 'SIGKILL']).optional() }),
  z.strictObject({ type: z.literal('input'), text: z.string().optional(), eof: z.boolean().optional() }),
  z.strictObject({ type: z.literal('read'), path: z.string().min(1) }),
  z.strictObject({ type: z.literal('write'), path: z.string().min(1), content: z.string() }),
  z.strictObject({ type: z.literal('edit'), path: z.string().min(1), old: z.string().min(1), new: z.string() }),
  z.strictObject({ type: z.literal('finish'), summary: z.string().default('') }),
]);
export type Action = z.infer<typeof ActionSchema>;
export type ActionType = Action['type'];
