// The guest dashboard's open tab lives in `?tab=` so a link or a reload opens
// the same one. 'people' has no visible trigger (spec §2): links only.
export const DASHBOARD_TABS = ['ideas', 'availability', 'people'] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];

export function parseDashboardTab(value: string | null): DashboardTab {
  return DASHBOARD_TABS.includes(value as DashboardTab) ? (value as DashboardTab) : 'ideas';
}
