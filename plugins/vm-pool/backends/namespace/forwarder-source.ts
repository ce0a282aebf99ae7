/**
 * The forwarder, run inside the guest's network namespace by `node -e` (CommonJS, no imports of
 * ours, so it works the same from source and from the bundle): listens on the server URL's port
 * on 127.0.0.1 and pipes every connection to the runner socket bind-mounted into the guest.
 * argv: socket path, port, file to create once listening.
 */
export const FORWARDER_SOURCE = `
'use strict';
const net = require('node:net');
const fs = require('node:fs');
const [socketPath, port, readyFile] = process.argv.slice(1);
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  client.pipe(upstream);
  upstream.pipe(client);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
});
server.on('error', (error) => {
  process.stderr.write('svc guest forwarder: ' + error.message + '\\n');
  process.exit(1);
});
server.listen(Number(port), '127.0.0.1', () => fs.writeFileSync(readyFile, 'ok\\n'));
`;
