// The one eviction rule of the in-memory caches and counters: a Map kept to `max` entries, where the entry set
// longest ago goes first (Maps iterate in insertion order, and setting a key again makes it the newest).
export function setBounded<K, V>(map: Map<K, V>, max: number, key: K, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}
