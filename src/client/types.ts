/** The REST API's resources as they appear on the wire. */
export interface PageInfo {
  total_count: number;
  count: number;
  start_cursor: string | null;
  end_cursor: string | null;
}

export interface PageOf<T> {
  page_info: PageInfo;
  data: T[];
}

export interface PageParams {
  limit?: number;
  after?: string;
  before?: string;
}

export interface Me {
  id: string;
  username: string;
  name: string;
  is_admin: boolean;
  created_at: number;
}

export interface CreatedAccount {
  id: string;
  name: string;
  api_key: string;
}

export interface ApiKeyInfo {
  id: string;
  name: string | null;
  prefix: string;
  created_at: number;
  last_used_at: number | null;
}

export interface CreatedApiKey extends ApiKeyInfo {
  api_key: string;
}

export interface Webhook {
  id: string;
  url: string;
  name: string;
  description: string;
  active: boolean;
  created_at: number;
  updated_at: number;
}

export interface CreatedWebhook extends Webhook {
  signing_secret: string;
}

export interface Deleted {
  id: string;
  deleted: boolean;
}
