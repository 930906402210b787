import { describe, expect, it } from 'vitest';
import { command, registeredStatements, statement } from './sql';

describe('statement registry', () => {
  it('registers each statement once, by name', () => {
    const s = statement('test.registry_one', 'SELECT 1 AS one', (r) => Number(r.one));
    expect(registeredStatements()).toContain(s);
    expect(s.map({ one: 1 })).toBe(1);
  });

  it('refuses a second statement under a taken name', () => {
    statement('test.registry_taken', 'SELECT 1', () => 1);
    expect(() => statement('test.registry_taken', 'SELECT 2', () => 2)).toThrow(/declared twice/);
    expect(() => command('test.registry_taken', 'DELETE FROM t')).toThrow(/declared twice/);
  });

  it('takes the same definition evaluated again (another bundle, a hot reload) as the same statement', () => {
    statement('test.registry_again', 'SELECT 1', () => 1);
    expect(() => statement('test.registry_again', 'SELECT 1', () => 1)).not.toThrow();
    expect(registeredStatements().filter((s) => s.name === 'test.registry_again')).toHaveLength(1);
  });

  it('a command maps no rows', () => {
    expect(() => command('test.registry_command', 'DELETE FROM t').map({})).toThrow(/execute/);
  });
});
