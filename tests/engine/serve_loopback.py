"""Runs the real engine's `app.py` on loopback only, for Studio's tests.

The engine binds its iroh endpoint with public relays and waits to be online, which needs
the Internet. This launcher swaps that one method for a bind with no relays, no discovery and
a fixed 127.0.0.1 port (keeping the engine's persisted secret key, so the ticket survives a
restart), then runs `app.py` as `__main__` with the arguments given. The working directory is
the unpacked engine; STUDIO_ENGINE_PORT names the port.
"""

import os
import runpy
import sys

# The unpacked engine first: its own modules, not a partial copy installed beside them.
sys.path.insert(0, os.getcwd())

import iroh  # noqa: E402
import net.iroh_server as server  # noqa: E402

PORT = int(os.environ["STUDIO_ENGINE_PORT"])


async def start_on_loopback(self):
    options = {
        "preset": iroh.preset_minimal(),
        "alpns": [server.ALPN],
        "bind_addr": f"127.0.0.1:{PORT}",
    }
    if self._secret_path is not None:
        options["secret_key"] = server.load_or_create_secret(self._secret_path).to_bytes()
    self._endpoint = await iroh.Endpoint.bind(iroh.EndpointOptions(**options))
    return str(iroh.EndpointTicket.from_addr(self._endpoint.addr()))


server.IrohServer.start = start_on_loopback
sys.argv = ["app.py", *sys.argv[1:]]
runpy.run_path("app.py", run_name="__main__")
