"""The Weaponized Chess site package: board and panel view-models, highlights, review."""
