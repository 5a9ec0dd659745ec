// Placeholder until the search code lands; remove when the folder has real sources.
