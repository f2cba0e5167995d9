// A titled section of a page; the heading labels the region for screen-reader navigation.
import { useId, type ReactNode } from "react";

export interface CardProps {
  title?: ReactNode;
  description?: ReactNode;
  /** Heading level of the title (pages use h1 for themselves, cards default to h2). */
  level?: 2 | 3;
  actions?: ReactNode;
  children?: ReactNode;
  className?: string;
}

export function Card({ title, description, level = 2, actions, children, className = "" }: CardProps) {
  const id = useId();
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <section
      aria-labelledby={title ? id : undefined}
      className={`rounded-lg border border-gray-300 bg-white p-4 shadow-sm sm:p-6 ${className}`}
    >
      {(title || actions) && (
        <div className="mb-4 flex flex-wrap items-start justify-between gap-2">
          <div>
            {title && (
              <Heading id={id} className="text-lg font-semibold text-gray-900">
                {title}
              </Heading>
            )}
            {description && <p className="mt-1 text-sm text-gray-700">{description}</p>}
          </div>
          {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
        </div>
      )}
      {children}
    </section>
  );
}
