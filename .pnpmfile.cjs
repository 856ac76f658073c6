// pnpm's hook on every package manifest it resolves, before it resolves their dependencies.
//
// @prisma/client names the Prisma CLI and TypeScript as optional peers, and pglite-prisma-adapter
// names @prisma/client as a peer it never imports. pnpm fills an optional peer from whatever the
// workspace has installed — the server's Prisma CLI (a devDependency, for `prisma generate`) and
// the root's TypeScript — and a filled peer is a dependency of the package in the lockfile, so the
// server's production set (`pnpm deploy --prod`, the Docker image) carried the CLI, Prisma Studio
// with React, effect, a second PGlite and TypeScript: about 200 MB that nothing runs. The server
// bundles the Prisma runtime it calls (apps/server/build.mjs) and needs none of them.
const UNUSED_PEERS = {
  '@prisma/client': ['prisma', 'typescript'],
  'pglite-prisma-adapter': ['@prisma/client'],
};

function readPackage(pkg) {
  for (const peer of UNUSED_PEERS[pkg.name] ?? []) {
    if (pkg.peerDependencies) delete pkg.peerDependencies[peer];
    if (pkg.peerDependenciesMeta) delete pkg.peerDependenciesMeta[peer];
  }
  return pkg;
}

module.exports = { hooks: { readPackage } };
