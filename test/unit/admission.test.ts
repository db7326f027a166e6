// The admission queue's decisions (src/http/admission.ts), on the real class
// with its measured service time set: a request runs while a slot is free,
// waits while its measured wait is within the bound, is refused at once beyond
// it or when its wait runs out; a freed slot goes to the first in line.
import { describe, expect, it } from 'vitest';
import { admissionClass, AdmissionQueue } from '../../src/http/admission.js';

describe('AdmissionQueue', () => {
  it('admits while slots are free, queues within the measured bound, refuses beyond it at once', async () => {
    const queue = new AdmissionQueue(2, 100);
    queue.serviceMs = 40;
    const a = queue.enter();
    const b = queue.enter();
    expect(typeof a).toBe('function');
    expect(typeof b).toBe('function');
    // Waits: (1 × 40) / 2 = 20 ms, then 40, 60, 80, 100 ms; the sixth in line would wait 120 ms.
    const waiting = Array.from({ length: 5 }, () => queue.enter());
    for (const w of waiting) expect(w).toBeInstanceOf(Promise);
    expect(queue.enter()).toBeUndefined();
    expect(queue.shed).toBe(1);
    // A freed slot goes to the first in line.
    (a as () => void)();
    const first = await waiting[0];
    expect(typeof first).toBe('function');
    expect(queue.running).toBe(2);
    expect(queue.waiting).toBe(4);
    // The others' wait runs out after the bound: refused.
    const rest = await Promise.all(waiting.slice(1).map((w) => Promise.resolve(w)));
    expect(rest).toEqual([undefined, undefined, undefined, undefined]);
    expect(queue.shed).toBe(5);
    (b as () => void)();
    (first as () => void)();
    expect(queue.running).toBe(0);
  });

  it('measures the service time of admitted requests', async () => {
    const queue = new AdmissionQueue(1, 1000);
    const release = queue.enter() as () => void;
    await new Promise((resolve) => setTimeout(resolve, 60));
    release();
    release(); // twice: counted once
    expect(queue.running).toBe(0);
    expect(queue.serviceMs).toBeGreaterThan(0.8 * 10 + 0.2 * 50);
  });
});

describe('admissionClass', () => {
  it('puts API requests in their class and leaves health, metrics, files and the console out', () => {
    expect(admissionClass('GET', '/api/v1/languages', undefined)).toBe('read');
    expect(admissionClass('PATCH', '/api/v2/translations', 'application/json')).toBe('write');
    expect(admissionClass('POST', '/graphql', 'application/json')).toBe('write');
    expect(admissionClass('POST', '/graphql', 'multipart/form-data; boundary=x')).toBe('transfer');
    expect(admissionClass('POST', '/api/v2/import?uploadFormat=x', 'multipart/form-data')).toBe('transfer');
    expect(admissionClass('GET', '/api/v4/export?downloadFormat=x', undefined)).toBe('transfer');
    expect(admissionClass('POST', '/api/v2/environments/_latest/publish', undefined)).toBe('transfer');
    for (const url of ['/healthz', '/readyz', '/metrics', '/cdn/x/_latest/en.json', '/console/', '/docs'])
      expect(admissionClass('GET', url, undefined), url).toBeUndefined();
  });
});
