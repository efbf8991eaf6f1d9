"""widgets/engine-client.js against a small fake worker (no Pyodide): answers matched by id, a time limit that
terminates the worker and rejects with the reason, a fresh worker for the next request, crashes and failed starts."""
import pytest

pytestmark = pytest.mark.browser

# A worker that answers "echo" after `delay` ms (so answers can arrive out of order), never answers "hang", throws
# an uncaught error on "crash", and fails its start when asked to.
FAKE_WORKER = r"""
self.onmessage = (event) => {
  const m = event.data;
  if (m.type === "start") {
    if (m.fail) self.postMessage({ type: "failed", reason: "no runtime here" });
    else { self.postMessage({ type: "progress", stage: "warming up" }); self.postMessage({ type: "ready" }); }
  } else if (m.type === "echo") {
    setTimeout(() => self.postMessage({ type: "result", id: m.id, value: m.value }), m.delay);
  } else if (m.type === "hang") {
    for (;;) {}
  } else if (m.type === "crash") {
    throw new Error("boom");
  } else if (m.type === "refuse") {
    self.postMessage({ type: "result", id: m.id, error: "bad request" });
  }
};
"""

SCENARIO = """async ([moduleURL, source]) => {
  const { EngineClient } = await import(moduleURL);
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  const stages = [];
  const client = new EngineClient({ url, onChange: (c) => stages.push(c.state + (c.stage ? ":" + c.stage : "")) });
  const outcome = (promise) => promise.then((m) => ({ value: m.value }),
                                            (e) => ({ name: e.name, cause: e.cause, message: e.message }));
  const report = {};
  report.outOfOrder = await Promise.all([
    outcome(client.request({ type: "echo", value: "slow", delay: 200 })),
    outcome(client.request({ type: "echo", value: "fast", delay: 0 })),
  ]);
  report.stages = stages.slice();
  report.refused = await outcome(client.request({ type: "refuse" }));
  const first = client.worker;
  const [hung, waiting] = await Promise.all([
    outcome(client.request({ type: "hang" }, { timeoutMs: 300 })),
    outcome(client.request({ type: "echo", value: "never", delay: 10000 }, { timeoutMs: 5000 })),
  ]);
  report.hung = hung;
  report.waiting = waiting;
  report.workerAfterStop = client.worker;
  report.afterStop = await outcome(client.request({ type: "echo", value: "again", delay: 0 }));
  report.freshWorker = client.worker !== first && client.starts === 2;
  report.crash = await outcome(client.request({ type: "crash" }));
  report.afterCrash = await outcome(client.request({ type: "echo", value: "back", delay: 0 }));
  report.startsAfterCrash = client.starts;

  const failing = new EngineClient({ url, startMessage: () => ({ fail: true }) });
  report.failed = await outcome(failing.request({ type: "echo", value: "x", delay: 0 }));
  report.failedAgain = await outcome(failing.request({ type: "echo", value: "x", delay: 0 }));
  report.failedStarts = failing.starts;
  report.failedState = failing.state;
  return report;
}"""


def test_the_engine_client_matches_answers_stops_runaway_requests_and_restarts(watched, site):
    page = watched.page
    page.goto(site.url)
    report = page.evaluate(SCENARIO, [site.url + "assets/layerwise/engine-client.js", FAKE_WORKER])
    assert report["outOfOrder"] == [{"value": "slow"}, {"value": "fast"}]
    assert report["stages"] == ["loading:starting the worker", "loading:warming up", "ready"]
    assert report["refused"] == {"name": "Error", "cause": None, "message": "bad request"}
    assert report["hung"] == {"name": "EngineStopped", "cause": "timeout",
                              "message": "stopped after 0.3 s without an answer"}
    assert report["waiting"] == {"name": "EngineStopped", "cause": "crashed",
                                 "message": "another request ran past its time limit"}
    assert report["workerAfterStop"] is None
    assert report["afterStop"] == {"value": "again"} and report["freshWorker"]
    assert report["crash"]["cause"] == "crashed" and "boom" in report["crash"]["message"]
    assert report["afterCrash"] == {"value": "back"} and report["startsAfterCrash"] == 3
    assert report["failed"] == {"name": "EngineStopped", "cause": "failed", "message": "no runtime here"}
    assert report["failedAgain"] == report["failed"]  # final: no new worker for every request
    assert report["failedStarts"] == 1 and report["failedState"] == "failed"
