import net from 'node:net';

/** Settings of a `tcp` check: a host and port that must accept a connection. */
export interface TcpCheckSettings {
  host: string;
  port: number;
}

/** Opens and closes a TCP connection. */
export function tcpCheck(settings: TcpCheckSettings, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: settings.host, port: settings.port });
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    signal.addEventListener('abort', () => fail(new Error('aborted')), { once: true });
    socket.once('connect', () => {
      socket.end();
      resolve();
    });
    socket.once('error', (error) =>
      fail(
        new Error(
          `cannot connect to ${settings.host}:${settings.port}: ` +
            `${(error as NodeJS.ErrnoException).code ?? error.message}`,
        ),
      ),
    );
  });
}
