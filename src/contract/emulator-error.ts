/**
 * What an EmulatorError says was wrong: `bad_option` (an option of `createEmulator` or `set`, or the
 * scenario), `bad_input` (any other value given to an operation: a clock value, a fault rule, an add),
 * `unknown_account`, `unknown_activation`, `unknown_fault_rule`, `unknown_sandbox` (no such one, or
 * one that ended), or `too_many_sandboxes` (the emulator holds as many as it may).
 */
export type EmulatorErrorCode =
  | 'bad_option'
  | 'bad_input'
  | 'unknown_account'
  | 'unknown_activation'
  | 'unknown_fault_rule'
  | 'unknown_sandbox'
  | 'too_many_sandboxes'

/**
 * An error of the caller's making: the emulator checked what it was given and refused it, saying what
 * was wrong in `message`. Any other error the emulator throws is its own failure.
 * @example
 * try {
 *   await emulator.addEntries(id, 5)
 * } catch (error) {
 *   if (error instanceof EmulatorError && error.code === 'unknown_activation') console.log(error.message)
 * }
 */
export class EmulatorError extends Error {
  constructor(
    readonly code: EmulatorErrorCode,
    message: string,
  ) {
    super(message)
    this.name = 'EmulatorError'
  }
}
