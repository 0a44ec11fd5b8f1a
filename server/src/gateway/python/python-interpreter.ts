import { execFile } from 'node:child_process';

const probe = 'import fastapi, uvicorn, sys; print(sys.version.split()[0], fastapi.__version__)';

/** Why an interpreter cannot run handlers, or its Python and FastAPI versions. */
function tryInterpreter(command: string): Promise<{ ok: true; version: string } | { ok: false; reason: string }> {
  return new Promise((resolve) => {
    execFile(command, ['-c', probe], { timeout: 15_000 }, (error, stdout, stderr) => {
      if (!error) return resolve({ ok: true, version: stdout.trim() });
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return resolve({ ok: false, reason: 'not found' });
      const last = stderr.trim().split('\n').pop() ?? error.message;
      resolve({ ok: false, reason: last });
    });
  });
}

/** A Python that has FastAPI and uvicorn. */
export interface PythonInterpreter {
  command: string;
  /** `<python version> <fastapi version>`. */
  version: string;
}

/**
 * Finds a Python that can run handler modules: `configured` when given (HANDLER_PYTHON), else
 * `python3` on the PATH, then Debian's `/usr/bin/python3`. Throws an error that lists what was tried
 * and how to install FastAPI when none fits.
 */
export async function findPython(configured?: string): Promise<PythonInterpreter> {
  const candidates = configured ? [configured] : ['python3', '/usr/bin/python3', 'python'];
  const tried: string[] = [];
  for (const command of candidates) {
    const outcome = await tryInterpreter(command);
    if (outcome.ok) return { command, version: outcome.version };
    tried.push(`${command} (${outcome.reason})`);
  }
  throw new Error(
    `no Python with FastAPI and uvicorn found; tried ${tried.join(', ')}. Install them with ` +
      ('`apt-get install python3-fastapi python3-uvicorn` or `pip install fastapi uvicorn`, or set ' +
        'HANDLER_PYTHON to an interpreter that has them'),
  );
}
