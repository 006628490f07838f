// An empty ES module: requiring it tells whether this runtime's `require` loads ES modules (see
// fakerLoadsWhenNeeded in random.ts). Not imported by anything.
export {}
