import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_HOURLY_TIME_ZONE,
  HOURLY_TIME_ZONES,
  hourLabel,
  shiftHour,
  shiftHourlyRows,
  timeZoneOffsetHours,
  utcOffsetLabel,
} from '@bt/core/format';

const WINTER = Date.parse('2024-01-15T12:00:00Z');
const SUMMER = Date.parse('2024-07-15T12:00:00Z');
// 20 March 2024: the United States are on summer time (since 10 March), Europe not yet (31 March).
const GAP = Date.parse('2024-03-20T12:00:00Z');

test('the 12 zones of the hourly sheet, Brussels first and default', () => {
  assert.equal(HOURLY_TIME_ZONES.length, 12);
  assert.equal(HOURLY_TIME_ZONES[0].id, DEFAULT_HOURLY_TIME_ZONE);
  assert.deepEqual(HOURLY_TIME_ZONES.map((z) => z.label), [
    'Bruxelles', 'Londres', 'Berlin', 'Paris', 'New York', 'Chicago', 'Denver', 'Los Angeles', 'São Paulo', 'Dubaï', 'Singapour', 'Tokyo',
  ]);
});

test('offsets follow daylight saving at the given date', () => {
  const offsets = (at: number) => Object.fromEntries(HOURLY_TIME_ZONES.map((z) => [z.id, timeZoneOffsetHours(z.id, at)]));
  assert.deepEqual(offsets(WINTER), {
    'Europe/Brussels': 1, 'Europe/London': 0, 'Europe/Berlin': 1, 'Europe/Paris': 1,
    'America/New_York': -5, 'America/Chicago': -6, 'America/Denver': -7, 'America/Los_Angeles': -8,
    'America/Sao_Paulo': -3, 'Asia/Dubai': 4, 'Asia/Singapore': 8, 'Asia/Tokyo': 9,
  });
  assert.deepEqual(offsets(SUMMER), {
    'Europe/Brussels': 2, 'Europe/London': 1, 'Europe/Berlin': 2, 'Europe/Paris': 2,
    'America/New_York': -4, 'America/Chicago': -5, 'America/Denver': -6, 'America/Los_Angeles': -7,
    'America/Sao_Paulo': -3, 'Asia/Dubai': 4, 'Asia/Singapore': 8, 'Asia/Tokyo': 9,
  });
  assert.equal(timeZoneOffsetHours('America/New_York', GAP), -4);
  assert.equal(timeZoneOffsetHours('Europe/Brussels', GAP), 1);
  // Brussels switches at 01:00 UTC on 31 March 2024.
  assert.equal(timeZoneOffsetHours('Europe/Brussels', Date.parse('2024-03-31T00:59:59Z')), 1);
  assert.equal(timeZoneOffsetHours('Europe/Brussels', new Date('2024-03-31T01:00:00Z')), 2);
  assert.throws(() => timeZoneOffsetHours('Mars/Olympus', WINTER), /invalid timeZone: Mars\/Olympus/);
  assert.throws(() => timeZoneOffsetHours('Europe/Paris', Number.NaN), /invalid date/);
});

test('hours shift modulo 24 and read as HHh', () => {
  assert.equal(shiftHour(23, 2), 1);
  assert.equal(shiftHour(0, -5), 19);
  assert.equal(shiftHour(7, 0), 7);
  assert.equal(shiftHour(3, 9), 12);
  assert.equal(hourLabel(7), '07h');
  assert.equal(hourLabel(23), '23h');
  assert.equal(utcOffsetLabel(2), 'UTC+2');
  assert.equal(utcOffsetLabel(-5), 'UTC-5');
  assert.equal(utcOffsetLabel(0), 'UTC');
  assert.equal(utcOffsetLabel(5.5), 'UTC+5:30');
});

test('hourly rows in New York (winter): shifted, sorted, labelled; unreadable hours dropped', () => {
  const rows = Array.from({ length: 24 }, (_, h) => [h, `row ${h}`] as const);
  const shifted = shiftHourlyRows(rows, (row) => row[0], timeZoneOffsetHours('America/New_York', WINTER));
  assert.equal(shifted.length, 24);
  assert.deepEqual(shifted.map((s) => s.hour), Array.from({ length: 24 }, (_, h) => h));
  assert.deepEqual(shifted[0], { hour: 0, label: '00h', row: [5, 'row 5'] });
  assert.deepEqual(shifted[23], { hour: 23, label: '23h', row: [4, 'row 4'] });
  const mixed = shiftHourlyRows([['07h'], [25], [null], ['x'], [22]], (row) => row[0], 2);
  assert.deepEqual(mixed.map((s) => [s.hour, s.label]), [[0, '00h'], [9, '09h']]);
});
