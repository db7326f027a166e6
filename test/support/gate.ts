// Holding a publication (or any hooked work) at a point of the test's choosing.

/** A gate for hooks: `wait()` blocks until `open()`; `reached` resolves when something waits. */
export function gate() {
  let open!: () => void;
  let reached!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  const arrived = new Promise<void>((r) => (reached = r));
  return {
    open,
    reached: arrived,
    wait: async () => {
      reached();
      await opened;
    },
  };
}
