/** The apps, connected accounts and dynamic props routes over the UI's client. */
import { appsApi } from "../../client/apps-client.js";
import { api } from "../api.js";

export const appsClient = appsApi(api);
