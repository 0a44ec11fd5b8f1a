"""Python handler worker of the adaptive gateway.

Serves one `<name>_handler.py` module (a FastAPI `APIRouter` named `router`) on a Unix socket that
only the gateway can reach. Works with FastAPI 0.92 / pydantic 1 (Debian) and current FastAPI /
pydantic 2. Protocol with the gateway: one JSON line on file descriptor 3 (stdout and stderr are the
handler's, logged by the gateway), either
  {"ready": true, "routes": [{"method", "path"}], "openapi": {...}}
or
  {"error": {"message", "line", "column"}}
after which the process exits with status 3. A handler's exception is written to stderr as one JSON line
  {"handler_error": {"request_id", "type", "message", "traceback"}}
(`request_id` from the gateway's `x-adaptive-request-id` header), and its 500 answer is marked
`x-adaptive-error-reported`, so that the gateway logs it as the request's error before it answers.
The gateway holds stdin open: when it reads its end, the gateway is gone, and the worker ends with every
process the handler started (it leads their process group).
"""

import asyncio
import contextvars
import importlib.util
import json
import logging
import os
import signal
import sys
import threading
import traceback


REQUEST_ID_HEADER = "x-adaptive-request-id"
ERROR_REPORTED_HEADER = "x-adaptive-error-reported"
# Bounds of the error line: the gateway parses it whole, and a message can be any size.
MAX_ERROR_LINE_CHARS = 2000
MAX_TRACEBACK_CHARS = 32000


# The protocol's pipe (fd 3), opened by main() before the handler runs, so that nothing it prints can be mistaken
# for it. Importing this module (the route-listing tests do) opens nothing.
protocol = None


def report(message):
    protocol.write(json.dumps(message) + "\n")
    protocol.flush()


def end_with_gateway():
    """Waits for stdin's end (the gateway closed it or is gone), then kills this process's group: the worker
    and whatever the handler started."""

    def watch():
        while os.read(0, 65536):
            pass
        os.killpg(os.getpgrp(), signal.SIGKILL)

    threading.Thread(target=watch, daemon=True).start()


def fail(message, line=None, column=None):
    report({"error": {"message": message, "line": line, "column": column}})
    sys.exit(3)


def location_in(path, error):
    """Line and column of the innermost traceback frame inside the handler file."""
    if isinstance(error, SyntaxError) and error.filename and os.path.abspath(error.filename) == path:
        return error.lineno, error.offset
    line = None
    for frame in traceback.extract_tb(error.__traceback__):
        if os.path.abspath(frame.filename) == path:
            line = frame.lineno
    return line, None


def load_router(path, module_name):
    sys.path.insert(0, os.path.dirname(path))
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except BaseException as error:  # a handler may raise anything at import time, SystemExit included
        line, column = location_in(path, error)
        fail("".join(traceback.format_exception_only(type(error), error)).strip(), line, column)
    router = getattr(module, "router", None)
    from fastapi import APIRouter

    if not isinstance(router, APIRouter):
        fail("the module has no fastapi.APIRouter named `router`")
    return router


def cut(text, limit):
    return text if len(text) <= limit else text[:limit] + "\u2026"


def bounded_traceback(error):
    """The traceback as Python prints it, its lines cut, and the outer frames dropped when it is too long.

    The first line (`Traceback (most recent call last):`) stays: it is how the gateway knows the format.
    """
    text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    lines = [cut(line, MAX_ERROR_LINE_CHARS) for line in text.rstrip("\n").split("\n")]
    kept, size = [], len(lines[0])
    for line in reversed(lines[1:]):
        size += len(line) + 1
        if size > MAX_TRACEBACK_CHARS:
            kept.append("  [outer frames cut]")
            break
        kept.append(line)
    return "\n".join([lines[0]] + kept[::-1])


# The exception this request's task reported: uvicorn logs it once more when Starlette re-raises it after the
# 500, in the same task (a context variable, not a mark on the handler's exception, which may refuse one).
reported_error = contextvars.ContextVar("reported_error", default=None)


def report_handler_error(request, error):
    """Writes a handler's exception to stderr as the one JSON line the gateway logs as the request's error."""
    reported_error.set(error)
    line = {
        "request_id": request.headers.get(REQUEST_ID_HEADER),
        "type": type(error).__name__,
        "message": cut(str(error), MAX_ERROR_LINE_CHARS),
        "traceback": bounded_traceback(error),
    }
    sys.stderr.write(json.dumps({"handler_error": line}) + "\n")
    sys.stderr.flush()


class AlreadyReported(logging.Filter):
    """Drops uvicorn's copy of the exception `report_handler_error` wrote for this request."""

    def filter(self, record):
        error = record.exc_info[1] if record.exc_info else None
        return error is None or error is not reported_error.get()


def build_app(router, prefix):
    """The handler's router in an app whose error bodies carry the gateway's codes (docs/errors.md)."""
    from fastapi import FastAPI, Request
    from fastapi.encoders import jsonable_encoder
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import JSONResponse, Response
    from starlette.exceptions import HTTPException

    app = FastAPI(openapi_url="/openapi.json", docs_url=None, redoc_url=None)
    app.include_router(router, prefix=prefix)

    @app.exception_handler(HTTPException)
    async def http_exception(request: Request, error: HTTPException):
        headers = getattr(error, "headers", None)
        # As FastAPI's own handler: these statuses carry no body.
        if error.status_code < 200 or error.status_code in (204, 304):
            return Response(status_code=error.status_code, headers=headers)
        content = {"detail": error.detail, "code": "HANDLER_HTTP_EXCEPTION"}
        return JSONResponse(status_code=error.status_code, content=content, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, error: RequestValidationError):
        # FastAPI's 422 body (`detail` lists the errors), plus the code.
        content = {"detail": jsonable_encoder(error.errors()), "code": "HANDLER_VALIDATION_FAILED"}
        return JSONResponse(status_code=422, content=content)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, error: Exception):
        report_handler_error(request, error)
        content = {"detail": "Internal error", "code": "INTERNAL"}
        return JSONResponse(status_code=500, content=content, headers={ERROR_REPORTED_HEADER: "1"})

    return app


SERVED_METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH")
# Deeper nesting of routers and mounts than any handler needs; a cycle cannot hang the listing.
MAX_ROUTE_DEPTH = 32


def children_of(route, path):
    """The routes nested in `route` and the prefix of their paths, or None for a route of its own.

    FastAPI up to about 0.13x copies an included router's routes into the parent, with their full paths;
    later versions keep one entry for the included router (`original_router`, its prefix in
    `include_context.prefix`, its routes' paths without it). Starlette's Mount, Host and Router, and
    anything like them, carry their own `routes` under their own `path`.
    """
    included = getattr(route, "original_router", None)
    if included is not None:
        return included.routes, path + getattr(getattr(route, "include_context", None), "prefix", "")
    if getattr(route, "methods", None):
        return None
    nested = getattr(route, "routes", None)
    return (nested, path + getattr(route, "path", "")) if nested else None


def routes_of(app, prefix):
    """Every (method, path) the app serves under `prefix`, through included routers and mounts at any depth."""
    routes = []

    def walk(entries, base, depth):
        for route in entries:
            nested = children_of(route, base)
            if nested is not None:
                if depth < MAX_ROUTE_DEPTH:
                    walk(nested[0], nested[1], depth + 1)
                continue
            path = base + getattr(route, "path", "")
            for method in sorted(getattr(route, "methods", None) or []):
                entry = {"method": method, "path": path}
                if method in SERVED_METHODS and path.startswith(prefix) and entry not in routes:
                    routes.append(entry)

    walk(app.routes, "", 0)
    return routes


def fastapi_version():
    import fastapi

    return getattr(fastapi, "__version__", "?")


async def serve(app, socket_path, routes):
    import uvicorn

    config = uvicorn.Config(app, uds=socket_path, log_level="warning", lifespan="off", access_log=False)
    # After Config, which configures uvicorn's loggers.
    logging.getLogger("uvicorn.error").addFilter(AlreadyReported())
    server = uvicorn.Server(config)
    task = asyncio.ensure_future(server.serve())
    while not server.started:
        if task.done():
            task.result()
            fail("the server stopped before it started")
        await asyncio.sleep(0.01)
    report({"ready": True, "routes": routes, "openapi": app.openapi()})
    await task


def main():
    global protocol
    handler_path, module_name, prefix, socket_path = sys.argv[1:5]
    protocol = os.fdopen(3, "w", encoding="utf-8")
    end_with_gateway()
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as error:
        fail("FastAPI is not installed for %s (%s): install it with `apt-get install python3-fastapi python3-uvicorn` or `pip install fastapi uvicorn`" % (sys.executable, error))
    router = load_router(os.path.abspath(handler_path), module_name)
    app = build_app(router, prefix)
    routes = routes_of(app, prefix)
    if not routes:
        # Serving nothing is never what a handler means: a load error, not a silent empty success.
        fail(
            "`router` has no routes the gateway can serve (%s) with FastAPI %s"
            % (", ".join(SERVED_METHODS), fastapi_version())
        )
    asyncio.run(serve(app, socket_path, routes))


if __name__ == "__main__":
    main()
