/** A choice of one value among a few, as radio buttons in a fieldset. */
export function RadioChoice<V extends string>({
  name,
  legend,
  hideLegend = false,
  className,
  options,
  value,
  onChange,
}: {
  name: string;
  legend: string;
  /** The legend is for screen readers only (the choice is plain from its labels). */
  hideLegend?: boolean;
  className: string;
  options: readonly { value: V; label: string }[];
  value: V;
  onChange: (value: V) => void;
}) {
  return (
    <fieldset className={className}>
      <legend className={hideLegend ? "visually-hidden" : undefined}>{legend}</legend>
      {options.map((option) => (
        <label key={option.value}>
          <input
            type="radio"
            name={name}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
          />{" "}
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}
