/** What every prop input takes: the prop, its value, and what it needs from the form around it. */
import type { ConfigurableProp } from "../../client/types.js";
import type { FormValue } from "./prop-values.js";

/** What an input that calls the server needs from the form around it. */
export interface FormContext {
  /** The component key, sc_ or dc_ id that `/v1/components/configure` takes. */
  componentId: string;
  dynamicPropsId?: string;
  /** The props configured before `name`, as the API takes them (values that do not parse are left out). */
  configuredSoFar: (name: string) => Record<string, unknown>;
}

export interface PropInputProps {
  prop: ConfigurableProp;
  id: string;
  value: FormValue;
  onChange: (value: FormValue) => void;
  describedBy: string;
  invalid: boolean;
  form: FormContext;
}
