"""Studio's launcher for a table hosted "for this machine only".

The engine binds its iroh endpoint with public relays and waits to be online. For this machine
only, this launcher swaps that one method for a bind with no relays and no discovery on a fixed
127.0.0.1 port (STUDIO_ENGINE_PORT), keeping the engine's persisted secret key so the ticket is
the same after a restart, then runs the engine's app.py as __main__ with the arguments given.
It runs in the engine's source folder with the engine's own Python.
"""

import os
import runpy
import sys

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
