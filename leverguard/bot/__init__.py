"""The PR bot: a thin shell (webhook app, SQLite inbox, worker, GitHub client, Actions mode) over the engines."""
