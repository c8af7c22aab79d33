"""The phone's side: the service worker and manifest, the sentences of the phone's scripts, and
this device's memory of the games and groups it opened."""
