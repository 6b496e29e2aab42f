/**
 * One input per prop type. A renderer is looked up by the prop's type in PROP_INPUTS; a prop
 * whose options load from the component gets the remote options input. A type with no renderer
 * (sql, any) shows a notice instead of a wrong input. Adding a type is adding an entry here.
 */
import type { ReactNode } from "react";
import type { ConfigurableProp } from "../../client/types.js";
import { AppInput } from "./app-input.js";
import { DataStoreInput } from "./data-store-input.js";
import { HttpRequestInput } from "./http-request-input.js";
import type { PropInputProps } from "./prop-input-props.js";
import { hasRemoteOptions, type TimerValue } from "./prop-values.js";
import { RemoteOptionsInput } from "./remote-options-input.js";

type PropInput = (props: PropInputProps) => ReactNode;

function optionsOf(prop: ConfigurableProp): { label: string; value: string }[] | undefined {
  if (!Array.isArray(prop.options)) return undefined;
  return prop.options.map((option) => {
    if (typeof option === "object" && option !== null && "value" in option) {
      const { label, value } = option as { label?: unknown; value: unknown };
      return { label: String(label ?? value), value: String(value) };
    }
    return { label: String(option), value: String(option) };
  });
}

function TextInput({ prop, id, value, onChange, describedBy, invalid }: PropInputProps) {
  const options = optionsOf(prop);
  const text = typeof value === "string" ? value : "";
  if (options) {
    return (
      <select
        id={id}
        value={text}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={describedBy}
        aria-invalid={invalid}
      >
        <option value="">{prop.optional ? "(none)" : "Choose…"}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    );
  }
  return (
    <input
      id={id}
      type={prop.secret ? "password" : prop.type === "integer" ? "number" : "text"}
      autoComplete="off"
      min={typeof prop.min === "number" ? prop.min : undefined}
      max={typeof prop.max === "number" ? prop.max : undefined}
      value={text}
      onChange={(event) => onChange(event.target.value)}
      aria-describedby={describedBy}
      aria-invalid={invalid}
    />
  );
}

function JsonInput({ prop, id, value, onChange, describedBy, invalid }: PropInputProps) {
  return (
    <textarea
      id={id}
      className="code"
      rows={prop.type === "object" ? 5 : 3}
      spellCheck={false}
      placeholder={prop.type === "object" ? '{"key": "value"}' : '["first", "second"]'}
      value={typeof value === "string" ? value : ""}
      onChange={(event) => onChange(event.target.value)}
      aria-describedby={describedBy}
      aria-invalid={invalid}
    />
  );
}

function BooleanInput({ id, value, onChange, describedBy }: PropInputProps) {
  return (
    <input
      id={id}
      type="checkbox"
      checked={value === true}
      onChange={(event) => onChange(event.target.checked)}
      aria-describedby={describedBy}
    />
  );
}

function TimerInput({ id, value, onChange, describedBy, invalid }: PropInputProps) {
  const timer = value as TimerValue;
  const set = (change: Partial<TimerValue>) => onChange({ ...timer, ...change });
  return (
    <fieldset id={id} className="timer" aria-describedby={describedBy}>
      <legend className="visually-hidden">Schedule</legend>
      <label>
        <input
          type="radio"
          name={`${id}-mode`}
          checked={timer.mode === "interval"}
          onChange={() => set({ mode: "interval" })}
        />{" "}
        Every
      </label>
      <label>
        <input
          type="radio"
          name={`${id}-mode`}
          checked={timer.mode === "cron"}
          onChange={() => set({ mode: "cron" })}
        />{" "}
        Cron
      </label>
      {timer.mode === "interval" ? (
        <label>
          Interval in seconds
          <input
            type="number"
            min={1}
            value={timer.intervalSeconds}
            onChange={(event) => set({ intervalSeconds: event.target.value })}
            aria-invalid={invalid}
          />
        </label>
      ) : (
        <>
          <label>
            Cron expression
            <input
              type="text"
              value={timer.cron}
              placeholder="0 * * * *"
              onChange={(event) => set({ cron: event.target.value })}
              aria-invalid={invalid}
            />
          </label>
          <label>
            Time zone
            <input
              type="text"
              value={timer.timezone}
              placeholder="UTC"
              onChange={(event) => set({ timezone: event.target.value })}
            />
          </label>
        </>
      )}
    </fieldset>
  );
}

const PROP_INPUTS: Record<string, PropInput> = {
  string: TextInput,
  integer: TextInput,
  boolean: BooleanInput,
  object: JsonInput,
  "string[]": JsonInput,
  "integer[]": JsonInput,
  "boolean[]": JsonInput,
  "object[]": JsonInput,
  "$.interface.timer": TimerInput,
  app: AppInput,
  data_store: DataStoreInput,
  http_request: HttpRequestInput,
};

function RemoteInput(props: PropInputProps) {
  const Static = PROP_INPUTS[props.prop.type] ?? TextInput;
  return <RemoteOptionsInput {...props} fallback={Static} />;
}

/** The input for a prop, or undefined when this UI cannot configure it yet. */
export function propInputFor(prop: ConfigurableProp): PropInput | undefined {
  if (hasRemoteOptions(prop)) return RemoteInput;
  return PROP_INPUTS[prop.type];
}
