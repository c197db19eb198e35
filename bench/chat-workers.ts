// The parent side of bench/chat-clients.ts: forks one load-generating process for a plan of whole
// rooms; it reports once and exits by itself. bench:chat and bench:capacity both drive it.
import { fork, type ChildProcess } from "node:child_process";
import type { ClientPlan, ClientReport } from "./chat-clients";

export type ChatWorker = { child: ChildProcess; ready: Promise<void>; report: Promise<ClientReport> };

export function forkChatClients(plan: ClientPlan): ChatWorker {
  const child = fork(new URL("./chat-clients.ts", import.meta.url), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  let ready!: () => void;
  let done!: (r: ClientReport) => void;
  let failed!: (e: Error) => void;
  const readyP = new Promise<void>((resolve) => (ready = resolve));
  const report = new Promise<ClientReport>((resolve, reject) => {
    done = resolve;
    failed = reject;
  });
  // A worker stopped before it reports (a failed step) is not an unhandled rejection; a caller
  // awaiting the report still gets the failure.
  report.catch(() => {});
  child.on("message", (m: { type: string; report?: ClientReport; error?: string }) => {
    if (m.type === "ready") ready();
    if (m.type === "report") done(m.report!);
    if (m.type === "failed") failed(new Error(m.error));
  });
  child.once("exit", (code) => failed(new Error(`chat clients exited with ${code}`)));
  child.send({ type: "plan", plan });
  return { child, ready: readyP, report };
}
