// What the page's script has in place of zod: its bundle aliases `zod` to this module. The src/contract/
// modules the page imports build their schemas when loaded; the page uses none of those schemas, only
// the contract's plain functions (an activation's state, a DateObject's instant), and zod would be most
// of the script. Each schema built here is an inert stand-in; a zod function missing from this list
// fails the bundle (esbuild's import-is-undefined, made an error).

type Inert = ((...args: unknown[]) => Inert) & { readonly [name: string]: Inert }

const inert: Inert = new Proxy((() => inert) as Inert, { get: () => inert })

export {
  inert as array,
  inert as boolean,
  inert as enum,
  inert as int,
  inert as iso,
  inert as looseObject,
  inert as number,
  inert as object,
  inert as strictObject,
  inert as string,
  inert as union,
}
