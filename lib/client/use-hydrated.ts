"use client";
// False during server rendering and hydration, true once React runs in the browser. Submit buttons of forms that
// are server-rendered wait for it, so an early click never falls back to a native GET submit (password in the URL).
import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

export const useHydrated = () =>
  useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
