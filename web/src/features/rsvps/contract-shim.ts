// TEMPORARY: the shapes of docs/api.md "Who's coming" as design37 names them,
// until the backend's contract (contract/rsvps.ts) is merged; replaced then.
import { z } from 'zod/mini';

export const RSVP_ANSWERS = ['going', 'maybe', 'no'] as const;
export const rsvpAnswerSchema = z.enum(RSVP_ANSWERS);
export const rsvpStateSchema = z.enum(['going', 'maybe', 'no', 'waitlist']);

export const rsvpResultSchema = z.object({
  answer: rsvpStateSchema,
  plusOnes: z.number(),
  position: z.nullable(z.number()),
});

export const rsvpsSchema = z.object({
  going: z.number(),
  maybe: z.number(),
  no: z.number(),
  waitlist: z.number(),
  unanswered: z.number(),
  headcount: z.number(),
  capacity: z.nullable(z.number()),
  maxPlusOnes: z.number(),
  askAgain: z.boolean(),
  mine: z.nullable(
    z.object({ answer: z.nullable(rsvpStateSchema), plusOnes: z.number(), position: z.nullable(z.number()), setByHost: z.boolean() }),
  ),
  people: z.array(
    z.object({
      participantId: z.string(),
      name: z.string(),
      isGuest: z.boolean(),
      role: z.nullish(z.string()),
      answer: z.nullable(rsvpStateSchema),
      plusOnes: z.number(),
      position: z.nullable(z.number()),
      setByHost: z.boolean(),
    }),
  ),
});
export type Rsvps = z.infer<typeof rsvpsSchema>;
export type RsvpResult = z.infer<typeof rsvpResultSchema>;
export type RsvpAnswer = z.infer<typeof rsvpAnswerSchema>;
export type RsvpState = z.infer<typeof rsvpStateSchema>;
export const CAPACITY_MAX = 200;
export const MAX_PLUS_ONES_MAX = 10;
