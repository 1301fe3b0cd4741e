/**
 * Bounded concurrency that keeps order: at most `limit` items in work at once, results yielded
 * in input order. The source is pulled only when a slot is free, so a large input is never read
 * ahead of the work by more than `limit` items.
 */
export async function* mapOrdered<T, R>(source: AsyncIterable<T>, limit: number, work: (item: T) => Promise<R>): AsyncGenerator<R> {
  const inFlight: Promise<R>[] = [];
  for await (const item of source) {
    inFlight.push(work(item));
    if (inFlight.length >= limit) yield await inFlight.shift()!;
  }
  while (inFlight.length > 0) yield await inFlight.shift()!;
}
