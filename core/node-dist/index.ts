// core/node-dist: Node.js releases from a nodejs.org/dist-shaped source (a URL or a directory),
// checked against the release's SHASUMS256.txt and unpacked safely. svc-runner's `configure`
// (externals/) and the built-in pool's runtimes (svc serve) both use it; it imports nothing of ours.
export { NodeDistError } from './node-dist-error.js';
export { DEFAULT_NODE_DIST, NODE_DIST_VARIABLE, installNodeRelease, installedNodeRelease, nodeArchiveName, type NodeReleaseOptions } from './node-release.js';
export { unpackTarGz } from './tar-unpack.js';
