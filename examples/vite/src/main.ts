const API = 'https://api.activations.test'

// The emulator answers in development (and in a build made with VITE_EMULATOR=on); it is loaded on
// demand, so a production bundle neither carries it nor starts it.
if (import.meta.env.DEV || import.meta.env.VITE_EMULATOR === 'on') {
  const { startEmulator } = await import('./mocks')
  await startEmulator()
}

const response = await fetch(`${API}/activations/list?state=running&limit=5`, {
  headers: { Authorization: 'Api-Key demo-key' },
})
const { activations } = (await response.json()) as { activations: Array<{ title: string; type: string }> }

const list = document.querySelector('#activations')!
for (const activation of activations) {
  const item = document.createElement('li')
  item.textContent = `${activation.title} (${activation.type})`
  list.append(item)
}
document.querySelector('#status')!.textContent = `${response.status}: ${activations.length} running activations`
