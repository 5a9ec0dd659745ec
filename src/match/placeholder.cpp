// Placeholder until the match code lands; remove when the folder has real sources.
