// The part of autocannon's API the benchmarks use (the package ships no types).
declare module "autocannon" {
  type Histogram = { average: number; mean: number; p50: number; p90: number; p99: number; max: number };
  type Result = { requests: Histogram; latency: Histogram; errors: number; timeouts: number; non2xx: number };
  type Options = { url: string; connections?: number; duration?: number; amount?: number; headers?: Record<string, string> };
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
