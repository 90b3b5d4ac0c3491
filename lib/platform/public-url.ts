import { config } from "@/lib/platform/config";

/** The public base url of customer-facing links (PUBLIC_BASE_URL, default http://localhost:PORT). */
export function publicBaseUrl(): string {
  const { PUBLIC_BASE_URL, PORT } = config();
  return (PUBLIC_BASE_URL ?? `http://localhost:${PORT}`).replace(/\/$/, "");
}
