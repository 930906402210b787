import { describe, expect, it } from 'vitest';
import { parseMultiHost } from './primary-locator';

describe('parseMultiHost', () => {
  it('leaves a single-host URL alone', () => {
    expect(parseMultiHost('postgresql://u:p@db.internal:5432/meridian?sslmode=require')).toBeUndefined();
  });

  it('splits libpq’s host list into one URL per host, in order, without target_session_attrs', () => {
    const m = parseMultiHost(
      'postgresql://app:s%40cret@10.0.0.1:5001,db-b.internal,[::1]:5003/meridian?target_session_attrs=read-write&sslmode=require',
    )!;
    expect(m.hosts).toEqual([
      { host: '10.0.0.1', port: 5001 },
      { host: 'db-b.internal', port: 5432 },
      { host: '::1', port: 5003 },
    ]);
    expect(m.urls).toEqual([
      'postgresql://app:s%40cret@10.0.0.1:5001/meridian?sslmode=require',
      'postgresql://app:s%40cret@db-b.internal:5432/meridian?sslmode=require',
      'postgresql://app:s%40cret@[::1]:5003/meridian?sslmode=require',
    ]);
    expect(m.attrs).toBe('read-write');
    for (const u of m.urls) expect(() => new URL(u)).not.toThrow();
  });

  it('shares one locator between roles, not between wants', () => {
    const app = parseMultiHost('postgres://app@a:1,b:2/db?target_session_attrs=read-write')!;
    const owner = parseMultiHost('postgres://owner@a:1,b:2/db?target_session_attrs=primary')!;
    const any = parseMultiHost('postgres://app@a:1,b:2/db')!;
    expect(owner.key).toBe(app.key);
    expect(any.attrs).toBe('any');
    expect(any.key).not.toBe(app.key);
  });

  it('refuses what it cannot honour', () => {
    expect(() => parseMultiHost('postgres://a:1,b:2/db?target_session_attrs=standby')).toThrow(/not supported/);
    expect(() => parseMultiHost('postgres://a:1,b:99999/db')).toThrow(/invalid port/);
  });
});
