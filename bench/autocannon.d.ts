// The part of autocannon's API the benchmarks use (the package ships no types).
declare module "autocannon" {
  type Histogram = { average: number; mean: number; p50: number; p90: number; p99: number; max: number; total: number };
  type Result = { requests: Histogram; latency: Histogram; errors: number; timeouts: number; non2xx: number; "2xx": number; statusCodeStats?: Record<string, { count: number }> };
  /** A request of the `requests` list; setupRequest may change it (its path, say) before each send. */
  type RequestSpec = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
  export type Options = {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    /** Stops after this many requests in all, or at `duration`, whichever comes first. */
    maxOverallRequests?: number;
    headers?: Record<string, string>;
    method?: string;
    body?: string;
    overallRate?: number;
    setupClient?: (client: { setHeaders(headers: Record<string, string>): void }) => void;
    requests?: (RequestSpec & { setupRequest?: (request: RequestSpec) => RequestSpec })[];
  };
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
