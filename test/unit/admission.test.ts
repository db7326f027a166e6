// The admission queue's decisions (src/http/admission.ts), on the real class
// with its measured service time set: a request runs while a slot is free,
// waits while its measured wait is within the bound, is refused at once beyond
// it or when its wait runs out; a freed slot goes to the first in line.
import { describe, expect, it } from 'vitest';
import { admissionClass, AdmissionQueue } from '../../src/http/admission.js';
import { LoopLag } from '../../src/http/loop-lag.js';

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

  it('refuses at once while the process is overloaded, even with a slot free', () => {
    const queue = new AdmissionQueue(4, 500);
    expect(queue.enter(true)).toBeUndefined();
    expect(queue.shed).toBe(1);
    expect(queue.running).toBe(0);
    expect(typeof queue.enter(false)).toBe('function');
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

describe('LoopLag', () => {
  // Ticks at chosen times (a 20 ms timer, 500 ms smoothing): the measure, not the timer, is under test.
  function lag(): { lag: LoopLag; at: (ms: number) => number } {
    const lag = new LoopLag(20, 500);
    const origin = performance.now();
    lag.tick(origin);
    return { lag, at: (ms) => origin + ms };
  }

  it('stays near zero while the timer comes on time', () => {
    const { lag: l, at } = lag();
    for (let t = 20; t <= 2000; t += 20) l.tick(at(t));
    expect(l.delayMs(at(2000))).toBeLessThan(1);
  });

  it('lets one long task through but sees a loop that stays late within a few hundred milliseconds', () => {
    const one = lag();
    for (let t = 20; t <= 1000; t += 20) one.lag.tick(one.at(t));
    one.lag.tick(one.at(1220)); // one task of 200 ms
    expect(one.lag.delayMs(one.at(1220))).toBeLessThan(100);
    for (let t = 1240; t <= 1600; t += 20) one.lag.tick(one.at(t));
    expect(one.lag.delayMs(one.at(1600))).toBeLessThan(40);

    const late = lag();
    // Every tick 150 ms late: more work than the thread can do.
    let t = 0;
    for (let i = 0; i < 4; i++) late.lag.tick(late.at((t += 170)));
    expect(late.lag.delayMs(late.at(t))).toBeGreaterThan(100);
  });

  it('counts a tick that is overdue now, before the timer had its turn', () => {
    const { lag: l, at } = lag();
    for (let t = 20; t <= 1000; t += 20) l.tick(at(t));
    // The loop has been busy for 800 ms since the last tick: a request read now sees it.
    expect(l.delayMs(at(1800))).toBeGreaterThan(300);
    expect(l.delayMs(at(1010))).toBeLessThan(1);
  });

  it('measures the real loop: a busy thread is seen at once', () => {
    const l = new LoopLag(10, 500).start();
    try {
      const until = performance.now() + 400;
      while (performance.now() < until);
      expect(l.delayMs()).toBeGreaterThan(150);
    } finally {
      l.stop();
    }
  });
});
