/**
 * `work` over `items` with up to `window` running at once, the results yielded in the items'
 * order: the packer lists and reads many small files, each a few file-system calls that would
 * otherwise wait for one another, while the archive must stay in path order. Stopping early
 * leaves the calls in flight to finish unobserved (their failures are not reported).
 */
export async function* inOrder<T, R>(items: readonly T[], window: number, work: (item: T) => Promise<R>): AsyncGenerator<R> {
  const pending: Promise<R>[] = [];
  let next = 0;
  const fill = () => {
    while (next < items.length && pending.length < window) {
      const started = work(items[next++] as T);
      started.catch(() => undefined); // awaited in turn below, unless iteration stops first
      pending.push(started);
    }
  };
  fill();
  for (let head = pending.shift(); head !== undefined; head = pending.shift()) {
    const value = await head;
    fill();
    yield value;
  }
}
