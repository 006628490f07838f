import * as z from 'zod'
import { dateObjectSchema } from './date-object.js'
import { activationTypeSchema, hasSubtype, SUBTYPES_BY_TYPE, subtypeSchema } from './enums.js'

/** The fields of an Activation, in the order the API sends them. */
export const activationShape = {
  id: z.string().min(1),
  type: activationTypeSchema,
  subtype: subtypeSchema.optional(),
  publicUrl: z.string(),
  title: z.string(),
  description: z.string(),
  slug: z.string().min(1),
  startTime: dateObjectSchema,
  endTime: dateObjectSchema,
  sponsorName: z.string().nullable(),
  sponsorUrl: z.string().nullable(),
  createdAt: dateObjectSchema,
  updatedAt: dateObjectSchema,
}

/** The rules across an Activation's fields that its field types alone cannot say. */
export function checkActivation(a: z.infer<z.ZodObject<typeof activationShape>>, ctx: z.RefinementCtx): void {
  if (hasSubtype(a.type)) {
    const allowed: readonly string[] = SUBTYPES_BY_TYPE[a.type]
    if (a.subtype === undefined || !allowed.includes(a.subtype)) {
      ctx.addIssue({
        code: 'custom',
        path: ['subtype'],
        message: `subtype of a ${a.type} must be one of ${allowed.join(', ')}`,
      })
    }
  } else if (a.subtype !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['subtype'], message: `a ${a.type} has no subtype` })
  }
  if ((a.sponsorName === null) !== (a.sponsorUrl === null)) {
    ctx.addIssue({
      code: 'custom',
      path: ['sponsorUrl'],
      message: 'sponsorName and sponsorUrl are both set or both null',
    })
  }
}

/** An Activation exactly as the API sends it: the spec's fields and no others. */
export const activationSchema = z.strictObject(activationShape).superRefine(checkActivation)

export type Activation = z.infer<typeof activationSchema>

/** The keys of an Activation in the order the API sends them. */
export const ACTIVATION_KEYS = [
  'id',
  'type',
  'subtype',
  'publicUrl',
  'title',
  'description',
  'slug',
  'startTime',
  'endTime',
  'sponsorName',
  'sponsorUrl',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof Activation>
