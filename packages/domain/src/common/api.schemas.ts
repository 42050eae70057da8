import { z } from 'zod';

export const ErrorBodySchema = z.object({
  statusCode: z.number().int(),
  code: z.string(),
  message: z.string(),
  details: z.unknown().optional(),
});

export const OkSchema = z.object({ ok: z.literal(true) });
export type Ok = z.infer<typeof OkSchema>;

export const IdParamsSchema = z.object({ id: z.string().min(1).max(64) });
export const UserIdParamsSchema = z.object({ userId: z.string().min(1).max(64) });
