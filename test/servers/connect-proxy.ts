/** An HTTP proxy on 127.0.0.1 that opens CONNECT tunnels (or refuses them), recording what it was asked. */
import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface ConnectProxy {
  port: number;
  url: string;
  /** Each CONNECT: its target (host:port) and the Proxy-Authorization header sent. */
  asked: { target: string; authorization?: string }[];
  close(): void;
}

/** `refuse`: answer every CONNECT with this status instead of opening the tunnel. */
export async function startConnectProxy(options: { refuse?: number } = {}): Promise<ConnectProxy> {
  const asked: ConnectProxy['asked'] = [];
  const server = createServer();
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    asked.push({ target: req.url ?? '', authorization: req.headers['proxy-authorization'] });
    if (options.refuse) return socket.end(`HTTP/1.1 ${options.refuse} No\r\n\r\n`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    asked,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
