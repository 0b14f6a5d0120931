"""The dashboard's Jupyter kernel: ipykernel, with room for a page that reads late (issue 34).

Voila starts a kernel per page with the notebook's kernelspec, ``python3``; this folder's
``kernel.json`` (first on ``JUPYTER_PATH`` when Voila runs with ``notebooks/config``, as
./dashboard does) starts this file instead of ``ipykernel_launcher``.  jupyter_client
puts the server's own Python in place of ``python`` and this folder in place of
``{resource_dir}``.  It lives here, not in the companion package, so that a kernel's
start imports nothing more than ipykernel's (importing the package first made a kernel
start about twice as long, and a kernel still starting can be culled).

The one difference: the kernel's IOPub socket keeps up to :data:`IOPUB_QUEUE` messages
for each reader instead of ZeroMQ's 1,000.  A PUB socket never waits for a slow reader:
past that limit it DROPS messages.  A game tab's first screen is one to a few thousand
widget messages sent at once; on a busy laptop the server reads them late, and what was
dropped never reaches the page ("widget model not found", an empty tab).  Measured
(``tests/test_iopub_burst.py``): a reader that reads only after a 9,000-message burst
got about 2,000 of them with ZeroMQ's limit, all of them with this one.  The limit must
be set before the socket is bound: a page's connection made later gets the options the
socket had when it was bound, whatever is set afterwards.  Bounded, not unlimited, so a
reader that never reads cannot take the kernel's memory (200,000 messages of a few
hundred bytes: some tens of MB at worst).

No widget is imported here (ipywidgets must be imported inside a running kernel).
"""
from __future__ import annotations

import os

#: how many IOPub messages the kernel keeps for each reader (``COMPANION_IOPUB_QUEUE``;
#: 1000 is ZeroMQ's own limit)
IOPUB_QUEUE = int(os.environ.get("COMPANION_IOPUB_QUEUE", "200000"))


def main() -> None:
    import zmq
    from ipykernel.kernelapp import IPKernelApp

    class CompanionKernelApp(IPKernelApp):
        """ipykernel's application, its IOPub socket made with a larger send limit."""

        def init_iopub(self, context: zmq.Context) -> None:
            # pyzmq applies a context's options to every socket it makes afterwards:
            # the IOPub socket is made (and bound) in the stock method
            context.setsockopt(zmq.SNDHWM, IOPUB_QUEUE)
            try:
                super().init_iopub(context)
            finally:
                context.sockopts.pop(zmq.SNDHWM, None)

    CompanionKernelApp.launch_instance()


if __name__ == "__main__":
    import sys
    # as ipykernel_launcher: the script's folder is not first on sys.path (IPython puts
    # the working folder there itself)
    if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
        del sys.path[0]
    main()
