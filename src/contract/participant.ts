import * as z from 'zod'
import { dateObjectSchema } from './date-object.js'
import { activationEnteredSchema, participantExtraSchema } from './nested.js'

/** A Participant exactly as the participants list sends it. */
export const participantSchema = z.strictObject({
  id: z.string().min(1),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  extras: z.array(participantExtraSchema),
  activationsEntered: z.array(activationEnteredSchema),
  firstEnteredAt: dateObjectSchema,
})

export type Participant = z.infer<typeof participantSchema>
