// Shared UI of the panel: import from "@/components" or from the file itself.
export { Address } from "./address";
export { Alert, type AlertTone } from "./alert";
export { Button, type ButtonProps, type ButtonVariant } from "./button";
export { Card, type CardProps } from "./card";
export { Checkbox, type CheckboxProps } from "./checkbox";
export { ConfirmDialog, type ConfirmDialogProps, type DetailsState } from "./confirm-dialog";
export { LocalTime } from "./local-time";
export { Select, type SelectOption, type SelectProps } from "./select";
export { Skeleton, SkeletonLines, Spinner } from "./spinner";
export { TextArea, TextField, type TextAreaProps, type TextFieldProps } from "./text-field";
export { TotpKey } from "./totp-key";
export { UsageBar, type UsageBarProps } from "./usage-bar";
