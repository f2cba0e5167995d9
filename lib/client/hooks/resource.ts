"use client";
// One set of react-query hooks per resource of the postmaster's domain (accounts, aliases, mailing lists): the
// paged list, one record, and the writes. Every write invalidates the resource's own keys and those of the
// resources it touches (an alias changes the account record that lists it; deleting an account deletes its aliases
// and changes the domain's counters).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { panelFetch, panelFetchText, retryRule } from "@/lib/client/api";
import { parseResultPage, type ResultPage } from "@/lib/client/page";
import { pageQueryString, type PageFilters } from "./page-params";

export interface ResourceConfig {
  /** The react-query key prefix, e.g. "accounts". */
  key: string;
  /** The v1 path segment, e.g. "emails". */
  path: string;
  /** Key prefixes of other resources a write here changes. */
  touches?: readonly string[];
  /** The list's sortable fields (lib/schemas). */
  sortFields: readonly string[];
}

/** A page of the list rendered by a server component, with the domain and query it was read for. */
export interface InitialListPage<Item> {
  domain: string;
  query: string;
  data: ResultPage<Item>;
  /** Server time of the read (ms), so react-query's staleTime counts from when the data was current. */
  at: number;
}

export interface SaveVariables {
  name: string;
  body: Record<string, unknown>;
  /** POST a new record instead of a PUT of an existing one. */
  create?: boolean;
}

export function resourceKeys(key: string) {
  const all = [key] as const;
  return {
    all,
    lists: () => [...all, "list"] as const,
    list: (filters: PageFilters & { domain: string }) => [...all, "list", filters] as const,
    detail: (domain: string, name: string) => [...all, "detail", domain, name] as const,
  };
}

const namesPath = (names: readonly string[]) => names.map(encodeURIComponent).join(",");

/**
 * The hooks of one resource. `Item` is the list's summary item, `Rec` the full record GET answers with (both the
 * types of the response schemas in lib/schemas; only the types reach the browser, not zod).
 */
export function resourceHooks<Item extends { name: string }, Rec extends { name: string }>(config: ResourceConfig) {
  const keys = resourceKeys(config.key);
  const base = (domain: string | undefined) => `${config.path}/${domain}`;

  function useInvalidate() {
    const qc = useQueryClient();
    return async () => {
      const roots = [config.key, ...(config.touches ?? [])];
      // A read under way may have started before the write, and react-query would hand out its answer as fresh
      // (a first fetch of a new search is not restarted by invalidation): cancel such reads, then read again.
      await Promise.all(roots.map((k) => qc.cancelQueries({ queryKey: [k] })));
      await Promise.all(roots.map((k) => qc.invalidateQueries({ queryKey: [k] })));
    };
  }

  /** Reads one page of the list; rows in the service's order. Without a domain (session loading) nothing is read. */
  function fetchPage(domain: string, filters: PageFilters): Promise<ResultPage<Item>> {
    return panelFetchText(`${base(domain)}?${pageQueryString(filters)}`).then((text) => parseResultPage<Item>(text));
  }

  /** POST (create) or PUT (update) of one record, outside react-query (bulk create invalidates once at the end). */
  function saveOne(domain: string | undefined, { name, body, create = false }: SaveVariables): Promise<Rec> {
    return panelFetch<Rec>(`${base(domain)}/${encodeURIComponent(name)}`, { method: create ? "POST" : "PUT", body });
  }

  function useList(domain: string | undefined, filters: PageFilters, initial?: InitialListPage<Item>) {
    const query = pageQueryString(filters);
    // The server's page seeds exactly the query it was read for; any other page, sort or search is fetched.
    const seed = initial && initial.domain === domain && initial.query === query ? initial : undefined;
    return useQuery({
      queryKey: keys.list({ ...filters, domain: domain ?? "" }),
      queryFn: () => fetchPage(domain!, filters),
      initialData: seed?.data,
      initialDataUpdatedAt: seed?.at,
      enabled: !!domain,
      // The previous page stays on screen while the next one loads: no empty table, no layout jump.
      placeholderData: keepPreviousData,
      retry: retryRule,
    });
  }

  function useDetail(domain: string | undefined, name: string) {
    return useQuery({
      queryKey: keys.detail(domain ?? "", name),
      queryFn: () => panelFetch<Rec>(`${base(domain)}/${encodeURIComponent(name)}`),
      enabled: !!domain,
      retry: retryRule,
    });
  }

  /** POST (create) or PUT (update) of one record; the answer is the full record. */
  function useSave(domain: string | undefined) {
    const invalidate = useInvalidate();
    return useMutation({
      mutationFn: (variables: SaveVariables) => saveOne(domain, variables),
      onSuccess: invalidate,
    });
  }

  /** PUT of one or several names (atomic on the server; per-name errors come back as `children`). */
  function useUpdate(domain: string | undefined) {
    const invalidate = useInvalidate();
    return useMutation({
      mutationFn: ({ names, body }: { names: readonly string[]; body: Record<string, unknown> }) =>
        panelFetch<Rec | undefined>(`${base(domain)}/${namesPath(names)}`, { method: "PUT", body }),
      onSuccess: invalidate,
    });
  }

  /** DELETE of one or several names (atomic on the server). */
  function useDelete(domain: string | undefined) {
    const invalidate = useInvalidate();
    return useMutation({
      mutationFn: (names: readonly string[]) =>
        panelFetch<undefined>(`${base(domain)}/${namesPath(names)}`, { method: "DELETE" }),
      onSuccess: invalidate,
    });
  }

  return {
    keys,
    sortFields: config.sortFields,
    fetchPage,
    saveOne,
    useList,
    useDetail,
    useSave,
    useUpdate,
    useDelete,
    useInvalidate,
  };
}

export type ResourceHooks<Item extends { name: string }, Rec extends { name: string }> = ReturnType<
  typeof resourceHooks<Item, Rec>
>;
