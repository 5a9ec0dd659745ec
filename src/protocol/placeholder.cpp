// Placeholder until the protocol code lands; remove when the folder has real sources.
