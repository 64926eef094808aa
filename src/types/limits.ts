import { z } from 'zod';

/** The budgets that end an attempt as a limit (a scored outcome, not an error). */
export const LIMIT_KINDS = ['wall', 'tokens', 'turns'] as const;
export const LimitKindSchema = z.enum(LIMIT_KINDS);
export type LimitKind = (typeof LIMIT_KINDS)[number];
