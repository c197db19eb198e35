/**
 * A bounded pool for heavy work (image decoding; the トレード候補 finder's statement): at most
 * `concurrency` tasks run at once, at most `maxWaiting` more wait in line, and anything past that
 * is refused at once instead of piling up memory, CPU or database connections that page answers
 * need.
 *
 * `enter()` takes a place (running or waiting) before the caller does any work — for an upload,
 * before its body is read — and answers null when the pool is full. A place is given back by its
 * `run()` finishing or by `leave()` when the caller gives up before running.
 */
export type PoolPlace = {
  run<T>(task: () => Promise<T>): Promise<T>;
  leave(): void;
};

export type WorkPool = {
  enter(): PoolPlace | null;
  readonly running: number;
  readonly taken: number;
};

export function createWorkPool(options: { concurrency: number; maxWaiting: number }): WorkPool {
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const capacity = concurrency + Math.max(0, Math.floor(options.maxWaiting));
  let taken = 0;
  let running = 0;
  const line: (() => void)[] = [];

  const startNext = () => {
    while (running < concurrency && line.length) {
      running++;
      line.shift()!();
    }
  };

  return {
    get running() {
      return running;
    },
    get taken() {
      return taken;
    },
    enter() {
      if (taken >= capacity) return null;
      taken++;
      let state: "held" | "used" | "left" = "held";
      return {
        async run<T>(task: () => Promise<T>): Promise<T> {
          if (state !== "held") throw new Error("a pool place runs one task");
          state = "used";
          await new Promise<void>((resolve) => {
            line.push(resolve);
            startNext();
          });
          try {
            return await task();
          } finally {
            running--;
            taken--;
            startNext();
          }
        },
        leave() {
          if (state !== "held") return;
          state = "left";
          taken--;
        },
      };
    },
  };
}
