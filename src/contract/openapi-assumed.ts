/** Marks what the spec does not show and the emulator chose, in every description of the OpenAPI document that holds it. */
export const ASSUMED = "Emulator's assumption (not shown by the spec):"
