import { fork, spawn } from 'node:child_process';

/**
 * Starts a server script as a child process (its own event loop, like a deployed server) and
 * resolves once it reports its port; `wrapper` is a command to run it under (`['valgrind', ...]`).
 * `pid` is the server's process id. `cpuUsage()` asks the child for its `process.cpuUsage()`;
 * `stop()` ends it through the IPC channel, then by signal.
 */
export function startServer(script, env, { wrapper = [] } = {}) {
  return new Promise((resolve, reject) => {
    const options = { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] };
    // A wrapper (valgrind) runs Node itself, so the child is spawned rather than forked; the IPC channel
    // reaches Node through the environment all the same.
    const child =
      wrapper.length === 0
        ? fork(script, [], options)
        : spawn(wrapper[0], [...wrapper.slice(1), process.execPath, script], options);
    const fail = (reason) => reject(new Error(`${script}: ${reason}`));
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code) => fail(`exited with code ${code} before reporting its port`));
    child.once('message', ({ port }) => {
      child.removeAllListeners('exit');
      const stop = () =>
        new Promise((done) => {
          if (child.exitCode !== null) return done();
          const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
          child.once('exit', () => {
            clearTimeout(timer);
            done();
          });
          child.disconnect();
        });
      const cpuUsage = () =>
        new Promise((done) => {
          const onMessage = (message) => {
            if (!message?.cpu) return;
            child.off('message', onMessage);
            done(message.cpu);
          };
          child.on('message', onMessage);
          child.send('cpu');
        });
      resolve({ port, origin: `http://127.0.0.1:${port}`, pid: child.pid, stop, cpuUsage });
    });
  });
}
